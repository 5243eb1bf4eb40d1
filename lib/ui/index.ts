export * from './FanstageProvider';
export * from './ProfileCard';
