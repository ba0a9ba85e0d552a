/** Seed 000 §2 "any other path": the not-found screen ('Page not found ;(', 'Go home' replaces the entry). */
import { NotFound } from "../features/layout/NotFound";

export const notFoundComponent = NotFound;
