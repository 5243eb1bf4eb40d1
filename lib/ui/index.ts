export * from './FanstageProvider';
export * from './ProfileCard';
export * from './LoginForm';
export * from './SignUpForm';
export * from './ForgotPasswordForm';
export * from './ResetPasswordForm';
export * from './VerifyEmailNotice';
export * from './FollowButton';
