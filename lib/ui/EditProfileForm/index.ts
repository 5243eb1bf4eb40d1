export { EditProfileForm, EditProfileFormView } from './EditProfileForm';
export type { EditProfileFormProps, EditProfileFormViewProps } from './EditProfileForm';
export { useEditProfileForm } from './useEditProfileForm';
export type { EditProfileField, EditProfileFormState, EditProfileValues, UseEditProfileFormOptions } from './useEditProfileForm';
