// A tools module whose top-level await waits on a promise that nothing settles.
await new Promise(() => {});
export default [];
