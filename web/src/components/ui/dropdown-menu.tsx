import type { ComponentProps } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { cn } from '@/lib/class-names';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

type DropdownMenuContentProps = ComponentProps<typeof Menu.Content> & {
  /** Render in place instead of in a portal (keeps the menu inside its landmark, e.g. the top bar). */
  inline?: boolean;
};

export function DropdownMenuContent({ className, sideOffset = 6, align = 'end', inline = false, ...props }: DropdownMenuContentProps) {
  const content = (
    <Menu.Content
      sideOffset={sideOffset}
      align={align}
      className={cn(
        'z-50 min-w-[12rem] overflow-hidden rounded-lg border border-border bg-popover p-1 text-popover-foreground shadow-lg data-[state=open]:animate-fade-in',
        className,
      )}
      {...props}
    />
  );
  return inline ? content : <Menu.Portal>{content}</Menu.Portal>;
}

export function DropdownMenuItem({ className, destructive, ...props }: ComponentProps<typeof Menu.Item> & { destructive?: boolean }) {
  return (
    <Menu.Item
      className={cn(
        'relative flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-none select-none transition-colors [&_svg]:size-4 [&_svg]:text-muted-foreground',
        'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
        destructive && 'text-danger [&_svg]:text-danger',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2.5 py-2 text-sm', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}
