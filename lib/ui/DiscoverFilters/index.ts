export { DiscoverFilters, DiscoverFiltersView } from './DiscoverFilters';
export type { DiscoverFiltersProps } from './DiscoverFilters';
export { useDiscoverFilters } from './useDiscoverFilters';
export type { DiscoverFiltersState, UseDiscoverFiltersOptions, FilterDraft, Choice } from './useDiscoverFilters';
