/** docs/dashboard-rules.md#screens "/apikeys": API Keys Manager (admin; its component is split into its own chunk by the router plugin). */
import { createFileRoute } from "@tanstack/react-router";
import { ApiKeysPage } from "../features/apikeys/ApiKeysPage";

export const Route = createFileRoute("/_auth/_admin/apikeys")({ component: ApiKeysPage });
