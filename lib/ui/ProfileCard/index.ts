export { ProfileCard, ProfileCardView } from './ProfileCard';
export type { ProfileCardProps, ProfileCardViewProps } from './ProfileCard';
export { useProfileCard } from './useProfileCard';
export type { ProfileCardState, ProfileCardData, ProfileCardStat, ProfileCardPrice, UseProfileCardOptions } from './useProfileCard';
