export const greeting = 'helo';
