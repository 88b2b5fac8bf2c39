/**
 * The id of the JSON data block in which the server hands the site content to the app
 * with the page itself (server/src/web/app-shell.ts writes it, web/src/api/site-content.ts
 * reads it): the public pages draw their copy on the first render.
 */
export const siteContentElementId = "site-content";
