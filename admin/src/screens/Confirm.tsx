import type { ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';

/**
 * A button that asks first: the action runs only after "Confirm" (or `confirm`) in a modal
 * dialog. Styled as dangerous unless `danger={false}`; `label` may name the row it acts on
 * (visually hidden words after the visible ones).
 */
export function ConfirmButton(props: {
  label: ReactNode;
  title: string;
  children: ReactNode;
  onConfirm: () => void;
  isDisabled?: boolean;
  confirm?: string;
  danger?: boolean;
}) {
  const tone = props.danger === false ? 'button' : 'button danger';
  return (
    <DialogTrigger>
      <Button className={tone} isDisabled={props.isDisabled}>
        {props.label}
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">{props.title}</Heading>
              <p>{props.children}</p>
              <div className="actions">
                <Button className="button" onPress={close} autoFocus>
                  Cancel
                </Button>
                <Button
                  className={props.danger === false ? 'button primary' : 'button danger'}
                  onPress={() => {
                    close();
                    props.onConfirm();
                  }}
                >
                  {props.confirm ?? 'Confirm'}
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
