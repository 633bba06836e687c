import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { searchVitePlugin } from "./catalogue/search-vite-plugin.ts";
import { catalogueVitePlugin } from "./catalogue/vite-plugin.ts";

export default defineConfig({
  plugins: [catalogueVitePlugin(), searchVitePlugin({ clientModule: "app/search/client.ts" }), reactRouter()],
  build: {
    // React Router prerenders and analyses routes inside its plugin hooks, so rolldown's timing
    // report would name them on every build: that time is the build's work, not a slow plugin.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
