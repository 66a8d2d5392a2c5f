// A helper the CommonJS tools fixture requires: resolving it needs tsx's CommonJS loader.
module.exports = { upperCase: (text: string): string => text.toUpperCase() };
