import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { catalogueVitePlugin } from "./catalogue/vite-plugin.ts";

export default defineConfig({
  plugins: [catalogueVitePlugin(), reactRouter()],
});
