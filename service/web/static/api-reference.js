// The API reference: Redoc (vendored) draws openapi.json into the page's main landmark.
const reference = document.getElementById("reference");
Redoc.init(reference.dataset.spec, { nativeScrollbars: true }, reference);
