import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PolicyManageRequest, PolicyManageResponse, SecurityPoliciesResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

const securityPoliciesQueryKey = ['security', 'policies'] as const;

/** GET /_api/security/policies: the organization's policies, current versions, by name. */
function getSecurityPolicies(signal?: AbortSignal): Promise<SecurityPoliciesResponse> {
  return apiRequest<SecurityPoliciesResponse>('/_api/security/policies', { signal });
}

export function useSecurityPolicies() {
  return useQuery({ queryKey: securityPoliciesQueryKey, queryFn: ({ signal }) => getSecurityPolicies(signal) });
}

/** POST /_api/security/policy-manage: create, update (versioned) or delete a policy. */
function managePolicy(body: PolicyManageRequest): Promise<PolicyManageResponse> {
  return apiRequest<PolicyManageResponse>('/_api/security/policy-manage', { body });
}

export function useManagePolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: managePolicy,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityPoliciesQueryKey }),
  });
}
