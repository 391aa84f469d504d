import { type ReactNode, useEffect } from 'react';

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  back?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · QR Sandbox`;
  }, [title]);
  return (
    <header className="page-header">
      {back && <div className="page-back">{back}</div>}
      <div className="page-header-row">
        <div>
          <h1>{title}</h1>
          {description && <p className="page-description">{description}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
    </header>
  );
}
