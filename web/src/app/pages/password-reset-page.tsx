import { useCallback } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ForgotPasswordForm } from '@/features/password-reset/components/forgot-password-form';
import { SetNewPasswordForm } from '@/features/password-reset/components/set-new-password-form';
import { useDocumentTitle } from '@/lib/document-title';
import { AuthLayout, footerLinkClass } from '../layouts/auth-layout';

/** /password-reset: ask for a link, or with ?token= set the new password. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  useDocumentTitle(token ? 'Set New Password' : 'Forgot Password');
  const toLogin = useCallback(() => void navigate('/login', { replace: true }), [navigate]);
  return (
    <AuthLayout
      footer={
        <Link to="/login" className={footerLinkClass}>
          Remember your password? Login
        </Link>
      }
    >
      {token ? <SetNewPasswordForm token={token} onDone={toLogin} /> : <ForgotPasswordForm />}
    </AuthLayout>
  );
}
