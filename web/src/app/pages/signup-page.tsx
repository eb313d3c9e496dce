import { Link } from 'react-router';
import { ArrowLeft, MailPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/document-title';
import { AuthLayout } from '../layouts/auth-layout';

/** /signup: the target of 'Need an account? Contact support'. Accounts come only by invitation. */
export function SignupPage() {
  useDocumentTitle('Need an account?');
  return (
    <AuthLayout>
      <div className="grid justify-items-center gap-4 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <MailPlus aria-hidden="true" className="size-6" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Need an account?</h1>
        <p className="text-sm text-muted-foreground">
          Strongroom accounts are created by invitation from your firm’s administrator. Ask them to invite you: the invitation email has a
          link to create your account.
        </p>
        <p className="text-sm text-muted-foreground">Already invited? Open the link in your invitation email.</p>
        <Button asChild variant="outline" className="mt-2">
          <Link to="/login">
            <ArrowLeft aria-hidden="true" />
            Back to Login
          </Link>
        </Button>
      </div>
    </AuthLayout>
  );
}
