import { imageResponse } from "../images.server.ts";
import type { Route } from "./+types/cards.$";

export const loader = ({ params }: Route.LoaderArgs) =>
  imageResponse(`/cards/${params["*"]}`, { "Cache-Control": "public, max-age=3600" });
