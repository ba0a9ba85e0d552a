/** The route tree of seed 000 §2, assembled from one module per screen (PRODUCT "Layout"). */
import { Route as rootRoute } from "./routes/__root";
import { Route as authRoute } from "./routes/_auth";
import { Route as adminRoute } from "./routes/_auth._admin";
import { Route as apikeysRoute } from "./routes/apikeys";
import { Route as tradingRoute } from "./routes/c.$queryPath";
import { Route as homeRoute } from "./routes/index";
import { Route as loginKeyRoute } from "./routes/login.key";
import { Route as loginPasswordRoute } from "./routes/login.password";
import { Route as registrationRoute } from "./routes/registration";
import { Route as userCreateRoute } from "./routes/user.create";
import { Route as userEditRoute } from "./routes/user.edit.$uuid";
import { Route as usersRoute } from "./routes/users";

export const routeTree = rootRoute.addChildren([
  loginPasswordRoute,
  loginKeyRoute,
  registrationRoute,
  authRoute.addChildren([
    homeRoute,
    tradingRoute,
    adminRoute.addChildren([apikeysRoute, usersRoute, userCreateRoute, userEditRoute]),
  ]),
]);
