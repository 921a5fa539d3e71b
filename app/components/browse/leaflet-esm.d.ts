// Leaflet's own ES module build, so the map chunk needs no CommonJS interop (ADR 053); its types are @types/leaflet's.
declare module "leaflet/dist/leaflet-src.esm.js" {
  export * from "leaflet";
}
