import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import { Dialog, FanstageProvider } from '../../lib/ui';
import { renderWith, violationsIn } from './support/auth';

const fanstage = createFanstage({ baseUrl: 'http://127.0.0.1:9' });

function Opener({ alert = false, dismissible = true }: { alert?: boolean; dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  const [closed, setClosed] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <output aria-label="closed">{closed}</output>
      {open ? (
        <Dialog
          title="Delete this post?"
          description="It cannot be undone."
          alert={alert}
          dismissible={dismissible}
          onClose={() => {
            setClosed((n) => n + 1);
            setOpen(false);
          }}
        >
          <button type="button">Delete</button>
          <button type="button">Keep</button>
        </Dialog>
      ) : null}
    </>
  );
}

describe('Dialog', { timeout: 20_000 }, () => {
  it('is a modal dialog named by its title and described by its text, in the reader\'s language', async () => {
    const { container } = renderWith(fanstage, <Opener />, 'cs');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this post?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAccessibleDescription('It cannot be undone.');
    // The close button is named in the reader's language.
    expect(within(dialog).getByRole('button', { name: 'Zavřít' })).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('takes focus to its first control other than Close, keeps Tab inside, closes on Escape once, and gives focus back', async () => {
    renderWith(fanstage, <Opener />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Delete this post?' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const remove = within(dialog).getByRole('button', { name: 'Delete' });
    const keep = within(dialog).getByRole('button', { name: 'Keep' });
    expect(remove).toHaveFocus();
    await user.tab();
    expect(keep).toHaveFocus();
    // From the last control Tab wraps to the first, never out to the page behind.
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(keep).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status', { name: 'closed' })).toHaveTextContent('1');
    expect(opener).toHaveFocus();
  });

  it('asks as an alert dialog, and a gate that may not be dismissed stays on Escape and has no Close', async () => {
    renderWith(fanstage, <Opener alert dismissible={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this post?' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog', { name: 'Delete this post?' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'closed' })).toHaveTextContent('0');
  });

  it('closes on a click on its backdrop (the dialog box itself), not on one inside', async () => {
    renderWith(fanstage, <Opener />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this post?' });
    await userEvent.click(within(dialog).getByText('It cannot be undone.'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await userEvent.click(dialog);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('works inside a shadow root: focus moves in and returns to the opener there', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const mount = document.createElement('div');
    shadow.append(mount);
    const root = createRoot(mount);
    await act(async () => {
      root.render(
        <FanstageProvider fanstage={fanstage} language="en">
          <Opener />
        </FanstageProvider>,
      );
    });
    const opener = shadow.querySelector('button')!;
    const user = userEvent.setup();
    await user.click(opener);
    const dialog = shadow.querySelector('dialog')!;
    expect(dialog).toHaveAttribute('open');
    expect(shadow.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Delete this post?');
    expect(shadow.activeElement?.textContent).toBe('Delete');
    await user.keyboard('{Escape}');
    expect(shadow.querySelector('dialog')).toBeNull();
    expect(shadow.activeElement).toBe(opener);
    await act(async () => root.unmount());
    host.remove();
  });
});
