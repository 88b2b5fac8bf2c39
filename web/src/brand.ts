/** The product name of the logo, the page title and the icon (web/index.html says it too). */
export const app_name = "TradePlatform";
