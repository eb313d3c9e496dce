import { useNavigate } from 'react-router';
import { SetupScreen } from '@/features/setup/components/setup-form';
import { useDocumentTitle } from '@/lib/document-title';
import { AuthLayout } from '../layouts/auth-layout';

/** /setup: first run, while no organization exists. */
export function SetupPage() {
  useDocumentTitle('Setup');
  const navigate = useNavigate();
  return (
    <AuthLayout>
      <SetupScreen onDone={() => void navigate('/login', { replace: true })} />
    </AuthLayout>
  );
}
