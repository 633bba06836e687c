import { data } from "react-router";
import { NotFound } from "../components/NotFound.tsx";

export function loader() {
  return data(null, { status: 404 });
}

export default NotFound;
