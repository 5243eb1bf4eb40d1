import { describe, expect, it } from 'vitest';
import {
  ApprovedState,
  approvedStates,
  checkPartnerForm,
  ibanChecksumValid,
  isActionGirlAnswer,
  isPartnerCode,
  maskIban,
  newPartnerCode,
  nextApprovedState,
  transitions,
  type PartnerEvent,
} from '../../server/src/features/partner/domain';
import { partnerValidation } from '../../server/src/features/settings/domain';
import { outcomeOf, identityKeys, isDocumentNumber } from '../../server/src/features/partner/identity/sandbox';

/** Every allowed move, written out by hand: the table in domain.ts must say exactly this. */
const allowed: [PartnerEvent, number, number][] = [
  ['saveForm', 0, 7],
  ['saveForm', 7, 7],
  ['saveForm', 101, 101],
  ['saveForm', 120, 120],
  ['registrationDone', 7, 101],
  ['startIdCheck', 101, 105],
  ['startIdCheck', 105, 105],
  ['idApproved', 105, 110],
  ['idNeedsReview', 105, 107],
  ['idDeclined', 105, 101],
  ['adminApprove', 110, 120],
  ['adminApprove', 107, 120],
  ['adminDecline', 110, 7],
  ['adminDecline', 107, 101],
  ['cancel', 7, 0],
  ['cancel', 101, 0],
  ['cancel', 105, 0],
  ['cancel', 107, 0],
  ['cancel', 110, 0],
  ['confirmBadge', 120, 120],
];

const events = Object.keys(transitions) as PartnerEvent[];

describe('approved states (SPEC §4) move only by the transition table', () => {
  it('knows the states 0, 7, 101, 105, 107, 110 and 120', () => {
    expect([...approvedStates].sort((a, b) => a - b)).toEqual([0, 7, 101, 105, 107, 110, 120]);
  });

  for (const [event, from, to] of allowed) {
    it(`${event} moves ${from} to ${to}`, () => {
      expect(nextApprovedState(from, event)).toBe(to);
    });
  }

  it('refuses every other pair of state and event', () => {
    let refused = 0;
    for (const event of events) {
      for (const state of approvedStates) {
        const listed = allowed.find(([e, from]) => e === event && from === state);
        if (listed === undefined) {
          expect(nextApprovedState(state, event), `${event} in ${state}`).toBeNull();
          refused++;
        }
      }
    }
    // 10 events × 7 states, of which 20 moves are allowed.
    expect(refused).toBe(events.length * approvedStates.length - allowed.length);
  });

  it('refuses states that do not exist', () => {
    for (const event of events) expect(nextApprovedState(3, event)).toBeNull();
  });

  it('lets nobody reach 120 except an administrator approving, and only after the identity check', () => {
    const into120 = allowed.filter(([, from, to]) => to === ApprovedState.approved && from !== ApprovedState.approved).map(([event, from]) => [event, from]);
    expect(into120).toEqual([
      ['adminApprove', 110],
      ['adminApprove', 107],
    ]);
  });

  it('a declined identity check goes back to 101, where the site asks to verify again', () => {
    expect(nextApprovedState(ApprovedState.checking, 'idDeclined')).toBe(ApprovedState.verify);
  });
});

describe('the partner form is checked with the settings’ expressions', () => {
  const good = { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'cz', iban: 'CZ65 0800 0000 1920 0014 5399', companyId: '' };

  it('accepts a good form and tidies it', () => {
    expect(checkPartnerForm(good)).toEqual({
      form: { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'CZ', iban: 'CZ6508000000192000145399', companyId: null },
    });
  });

  it.each([
    ['name', { name: 'J' }, 'partner-invalid-name'],
    ['name', { name: 'Jana <script>' }, 'partner-invalid-name'],
    ['street', { street: '  ' }, 'partner-invalid-street'],
    ['zip', { zip: '1' }, 'partner-invalid-zip'],
    ['country', { country: 'Czechia' }, 'partner-invalid-country'],
    ['iban', { iban: 'CZ65 0800 0000 1920 0014 5398' }, 'partner-invalid-iban'],
    ['iban', { iban: 'not an iban' }, 'partner-invalid-iban'],
    ['companyId', { companyId: '#' }, 'partner-invalid-company-id'],
  ])('refuses a bad %s with its own key', (field, change, key) => {
    expect(checkPartnerForm({ ...good, ...change })).toEqual({ field, key });
  });

  it('uses the very expressions GET /papi/settings sends', () => {
    expect(new RegExp(partnerValidation.zip).test('110 00')).toBe(true);
    expect(new RegExp(partnerValidation.iban).test('DE89370400440532013000')).toBe(true);
  });

  it('checks the IBAN check sum (ISO 13616)', () => {
    expect(ibanChecksumValid('DE89370400440532013000')).toBe(true);
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumValid('GB82WEST12345698765433')).toBe(false);
    expect(maskIban('DE89370400440532013000')).toBe('DE89••••••••••••••3000');
  });
});

describe('partner codes and small rules', () => {
  it('partner codes are 10 characters starting C- (SPEC §5)', () => {
    const code = newPartnerCode();
    expect(code).toHaveLength(10);
    expect(isPartnerCode(code)).toBe(true);
    expect(isPartnerCode('C-1234567')).toBe(false);
    expect(isPartnerCode('X-12345678')).toBe(false);
    expect(isPartnerCode('abcdefgh')).toBe(false);
  });

  it('action-girl accepts only actionState 2 or 3', () => {
    expect([0, 1, 2, 3, 4].map(isActionGirlAnswer)).toEqual([false, false, true, true, false]);
  });

  it('sandbox test documents have known verdicts, any other valid number is approved', () => {
    expect(['100000001', '200000002', '300000003', 'AB1234567'].map(outcomeOf)).toEqual(['approved', 'declined', 'review', 'approved']);
    expect(isDocumentNumber('12345')).toBe(false);
    expect(isDocumentNumber('AB1234567')).toBe(true);
  });

  it('signs callbacks so that a changed byte or another key fails', () => {
    const keys = identityKeys('secret-one');
    const body = '{"a":1}';
    const signature = keys.signBody(body);
    expect(keys.verifyBody(body, signature)).toBe(true);
    expect(keys.verifyBody('{"a":2}', signature)).toBe(false);
    expect(identityKeys('secret-two').verifyBody(body, signature)).toBe(false);
    expect(keys.verifyBody(body, undefined)).toBe(false);
  });
});
