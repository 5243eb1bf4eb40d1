/** The version of the fanstage package this code was built from. */
export const version: string = typeof __FANSTAGE_VERSION__ === 'string' ? __FANSTAGE_VERSION__ : '0.0.0-dev';
