import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateOrganizationRequest, UpdateOrganizationResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { organizationQueryKey } from './keys';

/** POST /_api/settings/organization (admins). With MFA_ORGANIZATION_SETTINGS on, the api client asks for a code. */
function updateOrganization(body: UpdateOrganizationRequest): Promise<UpdateOrganizationResponse> {
  return apiRequest<UpdateOrganizationResponse>('/_api/settings/organization', { body });
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    meta: { handlesError: true },
    onSuccess: (answer) => queryClient.setQueryData(organizationQueryKey, answer.organization),
  });
}
