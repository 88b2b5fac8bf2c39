import type { ComponentProps } from "react";
import { createPortal } from "react-dom";
import { Modal } from "../../components/modal.tsx";

/**
 * The app's Modal, rendered at the end of <body>: a dialog opened from the sticky detail
 * column would otherwise sit in that column's stacking context, under the header and the
 * section navigation.
 */
export function PortalModal(props: ComponentProps<typeof Modal>) {
  return createPortal(<Modal {...props} />, document.body);
}
