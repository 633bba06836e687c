import { createContext } from "react-router";
import type { FormRequestContext } from "../../rules/form-services.ts";

/** The form services and the visitor's address, set by the server for every request (server/http/app.ts). */
export const formRequestContext = createContext<FormRequestContext>();
