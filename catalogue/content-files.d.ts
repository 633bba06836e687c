/** The published content files, served to the server build by the catalogue's Vite plugin (catalogue/vite-plugin.ts). */
declare module "virtual:content-files" {
  const files: import("./load.ts").ContentFile[];
  export default files;
}
