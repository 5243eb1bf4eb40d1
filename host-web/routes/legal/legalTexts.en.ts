import type { LegalTexts } from './types';

/** The legal texts in English. Loaded only by the information pages, never by the first screen. */
const en: LegalTexts = {
  terms: {
    title: 'Terms of Service',
    lead: 'These terms are the agreement between you and the operator of {{site}}. Please read them: by creating an account or using the platform you accept them.',
    sections: [
      {
        heading: '1. Who we are',
        paragraphs: [
          'The platform at {{site}} is operated by {{operator}} ("we", "us"). You can reach us at {{email}} or through the contact page.',
          'The platform lets creators publish photos, videos and messages, sell access to them, offer subscriptions and paid video calls, and lets fans follow, chat with and support them.',
        ],
      },
      {
        heading: '2. Adults only',
        paragraphs: [
          'The platform contains content intended for adults. You may use it only if you are at least 18 years old and of the age of majority where you live, and if viewing such content is legal there.',
          'By agreeing to these terms you confirm that you meet these conditions. We close accounts of anyone under 18 as soon as we learn of it.',
        ],
      },
      {
        heading: '3. Your account',
        paragraphs: [
          'You need an account for most actions. Give true information, keep your password secret and do not share your account. You are responsible for what happens under your account.',
          'Many actions (following, liking, commenting, chatting, uploading and buying) require a confirmed e-mail address. You may close your account at any time in Settings.',
        ],
      },
      {
        heading: '4. Credits and payments',
        paragraphs: [
          'Paid content, messages, gifts, tips and calls are paid with credits. You buy credits by card through our payment processor; we never see or store your full card number.',
          'The price of every purchase is shown before you confirm it. Prices set by creators include the platform\'s fee. Credits have no cash value, cannot be transferred to another account and are not refunded, except where the law requires it or a purchase failed on our side.',
          'Digital content is delivered at once when you unlock it. If you are a consumer in the European Union, you agree that delivery starts immediately and acknowledge that you thereby lose the right to withdraw from that purchase.',
        ],
      },
      {
        heading: '5. Subscriptions',
        paragraphs: [
          'A subscription gives access to a creator\'s subscriber content for the period shown in the offer and renews automatically until you cancel it. You can cancel at any time in Settings; access continues until the end of the paid period.',
          'If a renewal payment fails, the subscription waits for payment for a short time and then expires. Price changes never apply to a period you have already paid for.',
        ],
      },
      {
        heading: '6. Creators',
        paragraphs: [
          'Creators keep all rights to their content. By publishing, a creator grants us a worldwide, non-exclusive, royalty-free licence to host, store, adapt (for example resize or blur) and show the content on the platform and in its widgets for as long as it is published.',
          'Creators may sell content only after verifying their identity and age. Every person who appears in content must be an adult who consented to being recorded and to publication, and the creator must hold proof of it (see the 2257 statement).',
          'Earnings are credited to the creator\'s balance after the platform\'s fee and may be paid out to a verified payout destination once they reach the minimum payout. Creators are responsible for their own taxes.',
        ],
      },
      {
        heading: '7. What is not allowed',
        paragraphs: ['You may not publish, send or ask for:'],
        items: [
          'any content involving a person under 18, or suggesting one;',
          'content showing a person who did not consent, including hidden recordings and "revenge" content;',
          'violence, non-consensual acts, bestiality, incest, or content involving drugs, weapons or self-harm presented approvingly;',
          'hate speech, harassment, threats or the disclosure of another person\'s private data;',
          'content that infringes someone else\'s copyright, trademark or other rights;',
          'spam, scams, offers of meetings for payment, or attempts to move payments outside the platform;',
          'anything else that is illegal where you or the recipient are.',
        ],
      },
      {
        heading: '8. Reports and moderation',
        paragraphs: [
          'Anyone can report a profile, post, comment or message that breaks these terms or the law through the report form or by writing to {{email}}. We review reports without undue delay, act on illegal content and tell the person affected what we decided and why.',
          'We may hide or remove content, limit features or suspend and close accounts that break these terms. If you think we decided wrongly, write to us: a person who was not involved in the first decision looks at it again.',
        ],
      },
      {
        heading: '9. Chat and video calls',
        paragraphs: [
          'Creators may charge for chat messages, media in chat and call minutes. The price is shown before you send or call. Calls are charged per started minute while the call lasts; a call ends when your credits run out.',
          'We do not record video calls. Messages are stored so that both people can read their conversation; they may be reviewed when they are reported.',
        ],
      },
      {
        heading: '10. Ending the agreement',
        paragraphs: [
          'You can stop using the platform and close your account at any time. We may end the agreement with notice, or at once for serious or repeated breaches. On closing, unused credits of a closed account are refunded only where the law requires it; a creator\'s earnings above the minimum payout are paid out after any open reports and charge-backs are settled.',
        ],
      },
      {
        heading: '11. Liability',
        paragraphs: [
          'Creators, not we, are responsible for their content. We provide the platform as it is and do our best to keep it available, but cannot promise that it will always work without interruption.',
          'Nothing in these terms limits liability that cannot be limited by law, in particular for intent, gross negligence or harm to life and health, or your rights as a consumer.',
        ],
      },
      {
        heading: '12. Changes to these terms',
        paragraphs: [
          'We may change these terms for good reason, for example new features or new laws. We tell you about important changes in advance and ask you to agree again; if you do not agree, you may close your account before the changes apply.',
        ],
      },
      {
        heading: '13. Law and disputes',
        paragraphs: [
          'These terms are governed by the law of the Czech Republic. If you are a consumer, you also keep the protection of the mandatory law of your country.',
          'Please contact us first if you have a complaint. Consumers may also turn to the Czech Trade Inspection Authority (www.coi.cz) for out-of-court resolution of disputes, or to the courts.',
        ],
      },
    ],
  },
  termsForAg: {
    title: 'Terms of promotional actions',
    lead: 'These terms apply when a verified creator accepts a promotional action offered by {{operatorName}}. They add to the Terms of Service, which still apply in full.',
    sections: [
      {
        heading: '1. What a promotional action is',
        paragraphs: [
          'From time to time we invite verified creators to take part in a promotional action: featuring on the home page, in Discover or in our newsletters and social media, or a campaign with a special offer for fans. Each offer says what is promoted, for how long, and what the creator receives.',
        ],
      },
      {
        heading: '2. Accepting or declining',
        paragraphs: [
          'You receive an offer as a notification and answer it in the app. Taking part is voluntary: declining has no effect on your account, your visibility or your earnings.',
          'You may withdraw from an action you accepted by writing to {{email}}; the promotion then ends as soon as it practically can.',
        ],
      },
      {
        heading: '3. Your content in the action',
        paragraphs: [
          'By accepting, you allow us to use your display name, profile picture and the content you choose for the action in the promotion described in the offer, during the period of the action. Locked content is never shown unlocked without your express consent.',
          'Only content in which every person shown is a verified adult who consented to the promotion may be used. You confirm that you hold the rights and consents needed.',
        ],
      },
      {
        heading: '4. Compensation',
        paragraphs: [
          'Any compensation stated in the offer is credited to your earnings balance under the usual rules for payouts. Sales made during an action are shared as usual unless the offer states otherwise.',
        ],
      },
      {
        heading: '5. Ending an action',
        paragraphs: [
          'We may end an action early if it breaks the law, these terms or the Terms of Service, or if content in it is reported and found to break them. Compensation already earned stays yours unless it was obtained by a breach.',
        ],
      },
    ],
  },
  terms2257: {
    title: '18 U.S.C. 2257 compliance statement',
    lead: 'Record-keeping requirements compliance statement for the content on {{site}}.',
    sections: [
      {
        heading: 'All persons were adults',
        paragraphs: [
          'All persons who appear in any visual depiction of actual or simulated sexually explicit conduct on this platform were at least 18 years old at the time the depiction was created.',
        ],
      },
      {
        heading: 'Who produces the content',
        paragraphs: [
          '{{operatorName}} does not produce the content on the platform. Content is created and published by independent creators, who are the primary producers of it within the meaning of 18 U.S.C. 2257 and 28 C.F.R. 75. The operator\'s activities with respect to such content are limited to hosting and distribution, as set out in 18 U.S.C. 2257(h)(2)(B)(v) and 47 U.S.C. 230(c).',
        ],
      },
      {
        heading: 'How we check',
        paragraphs: [
          'Before a creator may sell content, we verify the creator\'s identity and age with a government-issued photo ID through an identity verification provider. Creators must keep the records required by law for every person who appears in their content, including co-performers, and must give them to us on request. Content whose records cannot be shown is removed.',
        ],
      },
      {
        heading: 'Custodian of records',
        paragraphs: [
          'Records of the identity checks performed by the platform are kept by the custodian of records: {{operator}}. Requests: {{email}}.',
        ],
      },
      {
        heading: 'Reporting',
        paragraphs: [
          'If you believe content shows a person under 18 or a person who did not consent, report it at once with the report form or write to {{email}}. We remove such content without delay and report it to the competent authorities.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy policy',
    lead: 'How {{operatorName}} handles your personal data when you use {{site}}, and the rights you have under the GDPR.',
    sections: [
      {
        heading: '1. Controller',
        paragraphs: ['The controller of your personal data is {{operator}}. For anything about your data, write to {{email}}.'],
      },
      {
        heading: '2. What data we process',
        paragraphs: [],
        items: [
          'Account: e-mail address, username, password (stored only as a secure hash), language and settings.',
          'Profile: display name, bio, profile picture and anything else you choose to publish.',
          'Content and messages: posts, comments, chat messages, media you upload, reactions and likes.',
          'Purchases and earnings: credits, transactions, subscriptions, payouts and the payout details creators give us. Card numbers are handled only by our payment processor; we keep a reference to a saved card, its brand and last four digits.',
          'Identity verification (creators): the result of the ID check by our verification provider, your name and date of birth; for partners also address, company and bank details.',
          'Technical data: IP address, device and browser information, log records of sign-ins and security events, and the cookies described in the cookie policy.',
          'Messages you send us through the contact form, with your name and e-mail address.',
        ],
      },
      {
        heading: '3. Why we process it, and on what legal basis',
        paragraphs: [],
        items: [
          'To provide the platform and the services you ask for: your account, content, chat, calls, purchases and payouts (performance of a contract, Art. 6(1)(b) GDPR).',
          'To keep accounting and tax records, verify creators\' age and identity and answer lawful requests of authorities (legal obligation, Art. 6(1)(c)).',
          'To keep the platform safe: preventing fraud and abuse, moderating reported content, protecting accounts (legitimate interests, Art. 6(1)(f)).',
          'For statistics and marketing cookies, and for newsletters: only with your consent, which you may withdraw at any time (Art. 6(1)(a)).',
        ],
      },
      {
        heading: '4. Sensitive data',
        paragraphs: [
          'Using an adult platform may reveal something about your sex life or sexual orientation. We use such information only to provide the service you asked for, show it to nobody but the people you interact with, and never use it for advertising.',
        ],
      },
      {
        heading: '5. Who receives your data',
        paragraphs: [
          'Other users see what you publish and your public profile. Creators you write to see your messages. We share data with processors who work for us under contract: hosting and storage, e-mail delivery, the payment processor and the identity verification provider. We give data to authorities only where the law requires it.',
          'Where a processor is outside the European Economic Area, data is transferred only with appropriate safeguards such as the European Commission\'s standard contractual clauses.',
        ],
      },
      {
        heading: '6. How long we keep it',
        paragraphs: [
          'We keep your data while your account exists. After you close it, your profile and content are removed; we keep what the law requires (for example accounting records for 10 years) and security logs for up to 12 months. Contact messages are kept for up to 3 years.',
        ],
      },
      {
        heading: '7. Your rights',
        paragraphs: ['You have the right to:'],
        items: [
          'access your data and receive a copy of it;',
          'have inaccurate data corrected;',
          'have your data erased, or its processing restricted;',
          'data portability: receive your data in a machine-readable format;',
          'object to processing based on legitimate interests;',
          'withdraw your consent at any time, without affecting processing before the withdrawal;',
          'lodge a complaint with a supervisory authority, in the Czech Republic the Office for Personal Data Protection (www.uoou.cz).',
        ],
      },
      {
        heading: '8. Security',
        paragraphs: [
          'Connections are encrypted, passwords are stored as hashes, access to data inside our team is limited to those who need it, and every payment is recorded in a ledger that can be audited.',
        ],
      },
      {
        heading: '9. Adults only',
        paragraphs: ['The platform is not for anyone under 18. If we learn that we hold data of a minor, we delete the account and the data.'],
      },
      {
        heading: '10. Changes',
        paragraphs: ['We update this policy when our processing changes and tell you about important changes in advance.'],
      },
    ],
  },
  cookiePolicy: {
    title: 'Cookie policy',
    lead: 'Which cookies and similar storage {{site}} uses, why, and how you choose which you allow.',
    sections: [
      {
        heading: '1. What cookies are',
        paragraphs: [
          'Cookies are small text files a website stores in your browser. We also use the browser\'s local storage for a few settings. We group them into the four categories you choose from in the cookie preferences.',
        ],
      },
      {
        heading: '2. Necessary',
        paragraphs: ['Always on: the platform cannot work without them.'],
        items: [
          'fs_refresh: keeps you signed in (HttpOnly, sent only to the sign-in address; up to 30 days).',
          'fs_session: tells the page that a session exists, without revealing it (as long as the session).',
          'accept: records that you are 18 or older and agreed to the terms, with the version of the terms (365 days).',
          'preference: the cookie categories you allowed (2 years).',
        ],
      },
      {
        heading: '3. Preferences',
        paragraphs: ['Remember choices you made, so you need not make them again.'],
        items: [
          'cookielang: the language of the site (2 years).',
          'genderfilter: the filter of the timeline and Discover (30 days).',
          'pushdis: that you declined notifications, so we do not ask again too soon (14 days).',
          'smstip and robin: that a hint was shown, so it is not repeated (7 and 31 days).',
        ],
      },
      {
        heading: '4. Statistics',
        paragraphs: [
          'With your consent only, we count visits and how screens are used, without cookies of third parties and without identifying you, to improve the platform.',
        ],
      },
      {
        heading: '5. Marketing',
        paragraphs: [
          'With your consent only: affcode remembers which creator invited you, so they receive their share (31 days). We do not use advertising networks\' cookies.',
        ],
      },
      {
        heading: '6. Your choice',
        paragraphs: [
          'You choose the categories when you first visit and can change your choice at any time through the cookie preferences linked in the footer. You can also delete cookies in your browser; you will then be signed out and asked again.',
          'Questions: {{email}}.',
        ],
      },
    ],
  },
};

export default en;
