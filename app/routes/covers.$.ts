import { imageResponse } from "../images.server.ts";
import type { Route } from "./+types/covers.$";

/** /covers/<slug>.svg, the cover drawn for a book without one, and /covers/<slug>.png, its copy for social sites. */
export const loader = ({ params }: Route.LoaderArgs) => imageResponse(`/covers/${params["*"]}`);
