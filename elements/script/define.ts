import { setDefaultApiBase } from '../base';

/**
 * What each element's chunk of the script tag exports: the loader imports the chunk of every
 * `<fanstage-*>` tag it finds and calls `define` with the platform's origin, the API of
 * elements without an `api-base` attribute. A name already defined (another copy of the
 * script, the npm package on the same page) is left as it is.
 */
export type DefineElement = (apiBase: string) => CustomElementConstructor;

export function defineOnce(tag: string, element: () => CustomElementConstructor): DefineElement {
  return (apiBase) => {
    setDefaultApiBase(apiBase);
    const existing = customElements.get(tag);
    if (existing) return existing;
    const defined = element();
    customElements.define(tag, defined);
    return defined;
  };
}
