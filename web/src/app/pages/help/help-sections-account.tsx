import type { HelpSection } from './help-section';
import { Code, H3, Kbd, Ol, P, Ul, Where } from './help-text';

/** Signing in, the second factor, recovery codes and a lost phone: what Strongroom does, as built. */
export const ACCOUNT_SECTIONS: HelpSection[] = [
  {
    id: 'signing-in',
    title: 'Signing in and MFA',
    body: (
      <>
        <P>
          Signing in takes two steps: your email address and password, then a second factor (multi-factor authentication, MFA). The second
          factor is one of:
        </P>
        <Ul>
          <li>
            <Where>Authenticator App</Where>: the 6-digit code an app such as Google Authenticator or 1Password shows, which changes every
            30 seconds. Each code is accepted once.
          </li>
          <li>
            <Where>Email</Where>: press <Where>Send Code</Where> on the sign-in screen and enter the 6-digit code emailed to you.
          </li>
        </Ul>
        <P>
          When your firm requires MFA and you have not set it up, the first sign-in shows <Where>Enhance Your Account Security</Where>{' '}
          instead of the app: choose the authenticator app (scan the QR code, enter its code) or email. An authenticator comes with ten
          recovery codes, shown once (see the next section).
        </P>
        <H3>Switching method</H3>
        <P>
          MFA can be switched but never turned off. In <Where>Settings → Profile → Security</Where>, choose <Where>Manage</Where>. Moving to
          an authenticator (or to a new phone) is proved with a code of your current method; moving to email is proved with your current
          authenticator code, after which the authenticator and its recovery codes stop working.
        </P>
        <H3>Sessions</H3>
        <P>
          A session ends after a period without activity, and in any case after a fixed time, both set by your firm's installation. The app
          warns you shortly before it ends. <Where>Logout</Where> in the account menu ends it at once and removes, from this browser, any
          upload state it kept for resuming.
        </P>
        <P>
          Some actions (for example a legal hold, or a change to your firm's settings) may ask for a fresh code even though you are signed
          in: your administrator decides which, in <Where>Settings → Security</Where>.
        </P>
      </>
    ),
  },
  {
    id: 'recovery-codes',
    title: 'Recovery codes and a lost phone',
    body: (
      <>
        <P>
          When you set up an authenticator app, Strongroom shows ten recovery codes, each like <Code>7k2mq-x9p4d</Code>. They are shown only
          then: Strongroom keeps only a keyed hash of each, so nobody, not even an administrator, can show them to you again. Copy them or
          download them as <Code>strongroom-recovery-codes.txt</Code>, keep them somewhere safe away from your phone, and tick{' '}
          <Where>I have saved these codes</Where> to go on.
        </P>
        <H3>Signing in without your phone</H3>
        <Ol>
          <li>Sign in with your email and password as usual.</li>
          <li>
            On the second step choose <Where>Use a recovery code</Where> and enter one of your codes (capitals and the hyphen do not
            matter).
          </li>
          <li>
            That code is now spent. Strongroom emails you that a recovery code was used and how many remain, and the use is recorded in the
            audit log.
          </li>
        </Ol>
        <P>
          Once signed in, go to <Where>Settings → Profile → Security → Manage</Where> and move to a new authenticator app; a recovery code
          can prove that switch too. The new app comes with a new set of ten codes and the old set stops working.
        </P>
        <H3>Running low</H3>
        <P>
          <Where>Settings → Profile → Security</Where> shows how many unused codes are left. <Where>Regenerate</Where> replaces the whole
          set (it asks for a fresh authenticator code); the old codes stop working at once.
        </P>
        <H3>No phone and no codes</H3>
        <P>
          Ask an administrator of your firm. In <Where>Settings → Team &amp; Permissions</Where> they open your account and choose{' '}
          <Where>Reset MFA</Where> (with a reason, and their own code); you then set up a second factor again at your next sign-in.
        </P>
      </>
    ),
  },
  {
    id: 'keyboard-shortcuts',
    title: 'Keyboard shortcuts',
    body: (
      <>
        <P>Everything can be reached with the keyboard. These keys do more than move the focus:</P>
        <div>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Keyboard shortcuts</caption>
            <thead>
              <tr className="border-b border-border text-muted-foreground">
                <th scope="col" className="py-2 pr-4 font-medium">
                  Keys
                </th>
                <th scope="col" className="py-2 font-medium">
                  What they do
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              <Shortcut
                keys={[
                  ['Ctrl', 'K'],
                  ['⌘', 'K'],
                ]}
              >
                Focus the search box in the top bar (⌘ K on a Mac).
              </Shortcut>
              <Shortcut keys={[['Enter'], ['Space']]}>On a row of the matters list: open the matter.</Shortcut>
              <Shortcut keys={[['Enter'], ['Space']]}>
                On a folder or file in a matter: open the folder, or the file's preview. Arrow keys, Home and End move between rows.
              </Shortcut>
              <Shortcut keys={[['Shift', 'F10'], ['Menu']]}>On a folder or file: open its actions menu (as a right-click does).</Shortcut>
              <Shortcut keys={[['↑'], ['↓'], ['Enter']]}>In a suggestion list (client, lawyer): move through it and pick one.</Shortcut>
              <Shortcut keys={[['Esc']]}>Close the open dialog, menu or suggestion list.</Shortcut>
            </tbody>
          </table>
        </div>
      </>
    ),
  },
];

function Shortcut({ keys, children }: { keys: string[][]; children: string }) {
  return (
    <tr>
      <td className="py-2 pr-4 align-top">
        {keys.map((combo, i) => (
          <span key={combo.join('+')} className="inline-block whitespace-nowrap">
            {i > 0 ? <span className="px-1 text-muted-foreground">or</span> : null}
            {combo.map((k, j) => (
              <span key={k}>
                {j > 0 ? <span className="px-0.5 text-muted-foreground">+</span> : null}
                <Kbd>{k}</Kbd>
              </span>
            ))}
          </span>
        ))}
      </td>
      <td className="py-2 align-top">{children}</td>
    </tr>
  );
}
