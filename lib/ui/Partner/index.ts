export { PartnerRegistration } from './PartnerRegistration';
export type { PartnerRegistrationProps } from './PartnerRegistration';
export { IdCheckStatus } from './IdCheckStatus';
export type { IdCheckStatusProps } from './IdCheckStatus';
export { AdminPartnerQueue } from './AdminPartnerQueue';
export type { AdminPartnerQueueProps } from './AdminPartnerQueue';
export { usePartnerStatus } from './usePartnerStatus';
export { checkPartnerForm, ibanChecksumValid, isPartnerCode, partnerFields, REQUEST_CHECK_STATES } from './partnerForm';
export type { PartnerField, PartnerFormValues } from './partnerForm';
