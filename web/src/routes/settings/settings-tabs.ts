import { paths } from "../../paths.ts";

export const settingsTabs = [
  { to: paths.user.personalData, label: "Personal Data" },
  { to: paths.user.security, label: "Security" },
  { to: paths.user.responsibleTrading, label: "Responsible trading" },
] as const;
