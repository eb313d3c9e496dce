/** One part of the Security tooling card: a headed section (labelled by its heading) with a line saying what it does. */
export function ToolingPart({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  const id = `security-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="grid gap-3 border-t border-border pt-5 first:border-t-0 first:pt-0">
      <div className="grid gap-0.5">
        <h3 id={id} className="font-medium">
          {title}
        </h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}
