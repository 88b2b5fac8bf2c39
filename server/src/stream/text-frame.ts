/**
 * One unmasked WebSocket text frame (FIN set, opcode 1), as a server sends it (RFC 6455
 * §5.2). Server frames carry no mask, so the same bytes serve every recipient: a tick is
 * serialised and framed once, however many sockets it goes to.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, header, "utf8");
  return frame;
}
