export { Root as VisuallyHidden } from '@radix-ui/react-visually-hidden';
