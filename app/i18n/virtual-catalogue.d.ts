declare module "virtual:catalogue/*" {}

declare module "virtual:catalogue-assets" {
  const assets: import("./catalogue-plugin").CatalogueAssets;
  export default assets;
}
