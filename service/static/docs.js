// Starts Swagger UI at /docs/ with the settings the server wrote into the page (no inline script,
// so the page's Content-Security-Policy needs no 'unsafe-inline').
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  ...JSON.parse(root.dataset.config),
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
});
