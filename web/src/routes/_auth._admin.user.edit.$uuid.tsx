/** docs/dashboard-rules.md#screens "/user/edit/{uuid}": Edit one user (admin; split into its own chunk). */
import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { UserEditPage } from "../features/users/UserEditPage";

const paramsSchema = z.object({ uuid: z.string().min(1).max(100) });

export const Route = createFileRoute("/_auth/_admin/user/edit/$uuid")({
  params: { parse: (p) => paramsSchema.parse(p), stringify: (p) => ({ uuid: p.uuid }) },
  component: UserEditPage,
});
