import { useNavigate, useSearchParams } from 'react-router';
import { AcceptInvitation } from '@/features/invitations/components/accept-invitation';
import { useDocumentTitle } from '@/lib/document-title';
import { AuthLayout } from '../layouts/auth-layout';

/** /accept-invitation?token=...: the invited person creates their account. */
export function AcceptInvitationPage() {
  useDocumentTitle('Accept Invitation');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <AuthLayout>
      <AcceptInvitation token={params.get('token') ?? ''} onAccepted={() => void navigate('/login', { replace: true })} />
    </AuthLayout>
  );
}
