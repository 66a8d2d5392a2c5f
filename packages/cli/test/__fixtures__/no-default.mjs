export const tools = [];
