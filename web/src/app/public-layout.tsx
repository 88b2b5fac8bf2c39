import { Outlet } from "react-router";
import { PublicFrame } from "../shell/public-frame.tsx";

export function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
