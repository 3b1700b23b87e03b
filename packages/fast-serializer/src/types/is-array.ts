/**
 * `Array.isArray` for validating input typed as a (readonly) array or a union holding one: it narrows to the
 * declared array type, where `Array.isArray` (`value is any[]`) would turn the elements into `any`.
 */
export const isArray: (value: unknown) => value is readonly unknown[] = Array.isArray;
