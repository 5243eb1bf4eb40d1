/** The information pages whose texts live here (SPEC §2). */
export type LegalDocumentId = 'terms' | 'termsForAg' | 'terms2257' | 'privacy' | 'cookiePolicy';

/**
 * One section of a legal text. `{{operator}}` (the operator's name, and its address when one is
 * configured), `{{operatorName}}`, `{{email}}` (the support address) and `{{site}}` (this site's
 * address) are filled in from the server's settings when the page renders.
 */
export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
  /** A list after the paragraphs. */
  items?: readonly string[];
}

export interface LegalDocument {
  title: string;
  /** One or two sentences saying what the page is for, shown under the title. */
  lead: string;
  sections: readonly LegalSection[];
}

export type LegalTexts = Record<LegalDocumentId, LegalDocument>;
