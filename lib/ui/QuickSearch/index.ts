export { QuickSearch, QuickSearchView } from './QuickSearch';
export type { QuickSearchProps } from './QuickSearch';
export { useQuickSearch } from './useQuickSearch';
export type { QuickSearchItem, QuickSearchState, UseQuickSearchOptions } from './useQuickSearch';
