/**
 * A connection URL safe to print: the password (in the userinfo or a `password=` query parameter)
 * becomes `***`. Written here until `@ratchet/store` exports its own `redactUrl` (the fleet-port
 * branch); then this module goes and the backend imports that one.
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/iu, '$1:***@').replace(/([?&]password=)[^&#]*/giu, '$1***');
}
