declare module "virtual:content-files" {
  const files: import("./load.ts").ContentFile[];
  export default files;
}

declare module "virtual:search-assets" {
  const assets: import("./search-vite-plugin.ts").SearchAssets;
  export default assets;
}
