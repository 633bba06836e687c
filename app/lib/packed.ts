// React Router's stream decodes each value of the hydration data in JavaScript: for a list of hundreds
// of entries that is the page's longest task, where the browser parses one JSON string natively.
declare const packedValue: unique symbol;
export type Packed<T> = string & { readonly [packedValue]: T };

export const pack = <T>(value: T) => JSON.stringify(value) as Packed<T>;
export const unpack = <T>(packed: Packed<T>): T => JSON.parse(packed);
