export { FanstageProvider } from './FanstageProvider';
export type { FanstageProviderProps } from './FanstageProvider';
export { useFanstage, FanstageContext } from './context';
