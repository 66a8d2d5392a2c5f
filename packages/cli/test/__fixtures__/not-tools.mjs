// An object "of tools by name" whose values are arrays: no tools at all.
export default { foo: [], bar: [] };
