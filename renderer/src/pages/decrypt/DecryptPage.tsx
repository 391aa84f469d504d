import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';

export function DecryptPage() {
  return (
    <NotInThisBuild
      title="Decrypt"
      description="Paste a webhook body or payload and its X-Service-Signature header to see the plaintext JSON and whether the signature is valid."
      what="The decrypt tool"
      api={['POST /api/tools/decrypt']}
      next="When the server offers it, this page decrypts and verifies payloads, also without a network connection."
    />
  );
}
