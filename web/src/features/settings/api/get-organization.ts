import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationSettingsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { organizationQueryKey } from './keys';

/** GET /_api/settings/organization: the firm's name and primary contact, and whether this user may change them. */
function getOrganization(signal?: AbortSignal): Promise<OrganizationSettingsResponse> {
  return apiRequest<OrganizationSettingsResponse>('/_api/settings/organization', { signal });
}

export function useOrganizationSettings() {
  return useQuery(queryOptions({ queryKey: organizationQueryKey, queryFn: ({ signal }) => getOrganization(signal), staleTime: 0 }));
}
