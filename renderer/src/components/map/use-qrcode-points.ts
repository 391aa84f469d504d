import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getQuery } from '../../api/get-query.ts';
import { mapPoints } from './map-points.ts';

/** The organization's QR codes as map points; only those created or changed between two times when given (an import's). */
export function useQrCodePoints(organizationUuid: string, window?: { from: string; to: string }) {
  const query = useQuery(
    getQuery('/api/qrcodes/points', {
      query: { organization_uuid: organizationUuid, ...(window ? { changed_from: window.from, changed_to: window.to } : {}) },
    }),
  );
  const points = useMemo(() => (query.data ? mapPoints(query.data) : null), [query.data]);
  return { query, points };
}
